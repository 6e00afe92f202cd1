extension English {
    /// Why a backup or a restore was refused.
    func backup(_ problem: BackupProblem) -> String {
        switch problem {
        case .fileExists(let path): "\(path) exists already: name a new file, or give --force to replace it"
        case .sameAsLibrary(let path): "\(path) is the library itself: name another file"
        case .backupMissing(let path): "there is no backup at \(path)"
        case .notALibrary(let path): "\(path) is not a Shelfmark library (it holds no event log SQLite can read); nothing was restored"
        case .backupKeyMissing(let path, let key, let keyedFrom):
            "\(path) is keyed from position \(keyedFrom) and its chain key file \(key) is missing: put the key saved with the "
                + "backup there; nothing was restored"
        case .keyUnusable(let path, let problem): "\(path) cannot be restored: \(integrity(problem)); nothing was restored"
        case .doesNotVerify(let path, let failed):
            // The finding's words are the Wording target's; this English names the check and its values.
            "\(path) does not verify, so nothing was restored: \(failed.kind.rawValue): \(failed.finding)"
        case .libraryInUse(let path):
            "\(path) is open in another process (a running `shelfmark serve`, or a command still at work): "
                + "stop it, then restore; nothing was restored"
        case .lockUnusable(let path): "cannot open the lock file \(path): check that its folder exists and that this user may write there"
        }
    }

    func backedUp(_ report: BackupReport) -> String {
        var text = "Backed up \(summary(report.summary)) to \(report.file)."
        if let key = report.keyFile {
            text +=
                " Its chain key is in \(key): keep it with the backup (the backup opens and verifies only with it), "
                + "as secret as the library's own key."
        }
        if let anchors = report.anchorFile { text += " Its anchors are in \(anchors)." }
        return text
    }

    func restored(_ report: RestoreReport) -> String {
        let before =
            switch report.replaced {
            case nil: "There was no library at \(report.target) before."
            case let replaced?:
                "It replaced \(replaced.summary.map(summary) ?? "a file that is no library Shelfmark can read"), kept as "
                    + "\(replaced.keptAs) (with its key and anchors beside it, if it had them)."
            }
        return "Restored \(report.backup) into \(report.target): \(summary(report.restored)); every check of audit verify passed.\n"
            + before
    }

    /// `1234 events (head 0a1b2c3d4e5f…)`.
    private func summary(_ summary: LibrarySummary) -> String {
        let events = summary.events == 1 ? "1 event" : "\(summary.events) events"
        return summary.headHash.map { "\(events) (head \($0.prefix(12))…)" } ?? events
    }
}
