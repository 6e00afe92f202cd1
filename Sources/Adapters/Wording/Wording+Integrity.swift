import Application
import Domain

extension Wording {
    /// Why the chain key file or the anchor file cannot be used.
    func integrity(_ problem: IntegrityProblem) -> String {
        switch problem {
        case .keyFileUnreadable(let path): t("message.integrity.keyFileUnreadable", path)
        case .notAKeyFile(let path): t("message.integrity.notAKeyFile", path)
        case .keyFileExists(let path): t("message.integrity.keyFileExists", path)
        case .keyFileUncreatable(let path): t("message.integrity.keyFileUncreatable", path)
        case .keyFileUnwritable(let path): t("message.integrity.keyFileUnwritable", path)
        case .keyNeeded(let keyedFrom): t("message.integrity.keyNeeded", "\(keyedFrom)")
        case .keyOfAnotherDatabase(let path, let keyedFrom, let head):
            t("message.integrity.keyOfAnotherDatabase", path, "\(keyedFrom)", "\(head)")
        case .keyFileMissing(let path, let keyedFrom): t("message.integrity.keyFileMissing", path, "\(keyedFrom)")
        case .keyDisagrees(let path, let fileKeyedFrom, let fileKey, let keyedFrom, let key):
            t("message.integrity.keyDisagrees", path, "\(fileKeyedFrom)", fileKey, "\(keyedFrom)", key)
        case .anchorFileUnwritable(let path): t("message.integrity.anchorFileUnwritable", path)
        case .anchorNeedsKey: t("message.integrity.anchorNeedsKey")
        }
    }
}
