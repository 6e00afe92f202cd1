import Application
import Domain

extension Wording {
    /// Why a backup or a restore was refused.
    func backup(_ problem: BackupProblem) -> String {
        switch problem {
        case .fileExists(let path): t("message.backup.fileExists", path)
        case .sameAsLibrary(let path): t("message.backup.sameAsLibrary", path)
        case .libraryFile(let path): t("message.backup.libraryFile", path)
        case .backupMissing(let path): t("message.backup.backupMissing", path)
        case .notALibrary(let path): t("message.backup.notALibrary", path)
        case .backupKeyMissing(let path, let key, let keyedFrom): t("message.backup.backupKeyMissing", path, key, "\(keyedFrom)")
        case .keyUnusable(let path, let problem): t("message.backup.keyUnusable", path, integrity(problem))
        case .doesNotVerify(let path, let failed): t("message.backup.doesNotVerify", path, text(failed.kind), text(failed.finding))
        case .libraryInUse(let path): t("message.backup.libraryInUse", path)
        case .lockUnusable(let path): t("message.backup.lockUnusable", path)
        }
    }

    /// A backup written: what it holds, and the files to keep beside it.
    func backedUp(_ report: BackupReport) -> String {
        var sentences = [t("message.backedUp", summary(report.summary), report.file)]
        if let key = report.keyFile { sentences.append(t("message.backedUp.key", key)) }
        if let anchors = report.anchorFile { sentences.append(t("message.backedUp.anchors", anchors)) }
        return sentences.joined(separator: " ")
    }

    /// A backup restored: what it holds, and what became of the library it replaced.
    func restored(_ report: RestoreReport) -> String {
        let before =
            switch report.replaced {
            case nil: t("message.restored.nothingBefore", report.target)
            case let replaced?:
                t("message.restored.replaced", replaced.summary.map(summary) ?? t("message.restored.notALibrary"), replaced.keptAs)
            }
        return t("message.restored", report.backup, report.target, summary(report.restored)) + "\n" + before
    }

    /// `1,234 events (head 0a1b2c3d4e5f…)`.
    private func summary(_ summary: LibrarySummary) -> String {
        let events = t("message.events", count: Int(clamping: summary.events), n(summary.events))
        return summary.headHash.map { t("message.events.head", events, String($0.prefix(12))) } ?? events
    }
}
