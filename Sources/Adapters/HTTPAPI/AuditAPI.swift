import Application
import OpenAPIRuntime

/// The audit of the log.
extension LibraryAPI {
    func verifyLog(_ input: Operations.VerifyLog.Input) async throws -> Operations.VerifyLog.Output {
        let checks = try await library.verifyLog.execute(by: principal)
        return .ok(.init(body: .json(.init(
            ok: checks.allSatisfy(\.passed), checks: checks.map { .init(name: $0.name, passed: $0.passed, detail: $0.detail) }))))
    }
}
