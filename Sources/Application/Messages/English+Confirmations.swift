import Domain

extension English {
    /// What a command did.
    public func text(_ confirmation: Confirmation) -> String {
        switch confirmation {
        case .withdrawn(let count): count == 1 ? "1 book withdrawn" : "\(count) books withdrawn"
        }
    }
}
