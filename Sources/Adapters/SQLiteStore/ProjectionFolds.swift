import Application
import GRDB

/// What a projection's fold does with an event during a catch-up.
enum Folding {
    /// Held in memory, written when the fold is flushed.
    case held
    /// Nothing: the projection does not read the event.
    case ignored
    /// Applied by the projection as usual, once every fold has written what it holds.
    case applied
}

/// A projection's writes held over a batch of a catch-up or a rebuild, so that a row several
/// events change in one batch (a book lent and given back, a loan opened and returned) is written
/// once. Appends apply each event at once; only the catch-up folds (bench/PROFILE.md, change 34).
///
/// What keeps the read models as event-by-event application leaves them:
/// - before any projection with a fold applies an event itself, every fold writes what it holds
///   (so a statement that reads another projection's rows finds them written);
/// - every fold writes what it holds at the end of each batch, before the positions move;
/// - a projection without a fold reads only its own tables.
protocol ProjectionFold: AnyObject {
    /// Holds the event's writes, or says the projection ignores it or must apply it itself.
    func take(_ event: RecordedEvent) -> Folding
    /// Writes what the fold holds and empties it.
    func flush(_ db: Database) throws
}

extension SQLiteProjection {
    /// No fold: the projection applies every event as it comes.
    func makeFold() -> (any ProjectionFold)? { nil }
}
