extension English {
    /// Why the chain key file or the anchor file cannot be used.
    func integrity(_ problem: IntegrityProblem) -> String {
        switch problem {
        case .keyFileUnreadable(let path): "cannot read the chain key file \(path)"
        case .notAKeyFile(let path): "\(path) is not a Shelfmark chain key file"
        case .keyFileExists(let path): "\(path) exists already"
        case .keyFileUncreatable(let path):
            "cannot create the chain key file \(path): check that its folder exists and that this user may write there"
        case .keyFileUnwritable(let path): "cannot write the chain key file \(path) completely (is the disk full?)"
        case .keyNeeded(let keyedFrom): "the log is keyed from position \(keyedFrom): it opens only with its chain key file"
        case .keyOfAnotherDatabase(let path, let keyedFrom, let head):
            "the chain key file \(path) keys from position \(keyedFrom), but the database records no chain key and "
                + "its log ends at \(head): the file belongs to another database"
        case .keyFileMissing(let path, let keyedFrom):
            "the log is keyed from position \(keyedFrom) with the chain key file \(path), which is missing: "
                + "put it back, or set SHELFMARK_CHAIN_KEY to where it is"
        case .keyDisagrees(let path, let fileKeyedFrom, let fileKey, let keyedFrom, let key):
            "the chain key file \(path) (keying from position \(fileKeyedFrom), key \(fileKey)) disagrees with the database "
                + "(keyed from position \(keyedFrom), key \(key))"
        case .anchorFileUnwritable(let path):
            "cannot append to the anchor file \(path): check that its folder exists and that this user may write there"
        case .anchorNeedsKey: "cannot sign an anchor: the log has no chain key"
        }
    }
}
