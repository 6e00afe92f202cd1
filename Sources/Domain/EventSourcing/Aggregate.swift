/// The shape every aggregate has: an initial state, a pure fold of events into state,
/// and a pure decision of a command into new events or a typed rejection.
public protocol Aggregate {
    associatedtype State: Sendable
    associatedtype Event: Sendable
    associatedtype Command: Sendable
    associatedtype Rejection: Error

    /// The state of a stream with no events.
    static var initial: State { get }
    /// The state after one more event.
    static func evolve(_ state: State, _ event: Event) -> State
    /// The events a command decides in a state, or why it is refused. Never I/O.
    static func decide(_ command: Command, _ state: State) throws(Rejection) -> [Event]
}

extension Aggregate {
    /// The state after a history of events.
    public static func fold(_ events: some Sequence<Event>, from state: State = initial) -> State {
        events.reduce(state, evolve)
    }
}
