import Application
import PostgresNIO

/// Verify's check that `events` has exactly the triggers Shelfmark created, enabled, calling its
/// functions as written in `PostgresSchema`, and that no other table of the library has one: a
/// trigger dropped, disabled, replaced or added anywhere, or a function rewritten to do nothing, fails it.
enum PostgresAppendOnly {
    /// Each trigger as PostgreSQL describes it (`pg_get_triggerdef`), `%s` standing for the schema.
    static let triggers = [
        "events_insert_guard":
            "CREATE TRIGGER events_insert_guard BEFORE INSERT ON %s.events FOR EACH ROW EXECUTE FUNCTION shelfmark_events_next_only()",
        "events_no_truncate":
            "CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON %s.events FOR EACH STATEMENT EXECUTE FUNCTION shelfmark_events_append_only()",
        "events_no_update":
            "CREATE TRIGGER events_no_update BEFORE DELETE OR UPDATE ON %s.events FOR EACH ROW EXECUTE FUNCTION shelfmark_events_append_only()",
    ]

    /// The function each trigger calls.
    static let functions = [
        "events_insert_guard": "shelfmark_events_next_only", "events_no_truncate": "shelfmark_events_append_only",
        "events_no_update": "shelfmark_events_append_only",
    ]

    /// A function's body as its migration wrote it (between its `$$`), white space folded.
    static func body(of function: String) -> String? {
        for migration in PostgresSchema.log {
            for statement in migration.sql where statement.sql.contains("FUNCTION \(function)()") {
                let parts = statement.sql.components(separatedBy: "$$")
                if parts.count >= 3 { return folded(parts[1]) }
            }
        }
        return nil
    }

    static func folded(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }

    static func check(_ session: SQLSession) async throws -> AuditCheck {
        let schema = try await session.value("SELECT current_schema()", as: String.self) ?? "public"
        let found = try await session.rows(
            """
            SELECT t.tgname::text, pg_get_triggerdef(t.oid), t.tgenabled::text, p.proname::text, p.prosrc
            FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
            WHERE t.tgrelid = 'events'::regclass AND NOT t.tgisinternal
            """, as: (String, String, String, String, String).self)
        var byName: [String: (definition: String, enabled: String, function: String, body: String)] = [:]
        for (name, definition, enabled, function, body) in found { byName[name] = (definition, enabled, function, body) }
        var problems: [AuditFinding] = []
        for (name, definition) in triggers.sorted(by: { $0.key < $1.key }) {
            guard let actual = byName[name] else {
                problems.append(.triggerMissing(name))
                continue
            }
            let expected = definition.replacingOccurrences(of: "%s", with: schema)
            if actual.definition != expected || actual.enabled != "O" || actual.function != functions[name]
                || folded(actual.body) != body(of: actual.function)
            {
                problems.append(.triggerAltered(name))
            }
        }
        // Triggers on the library's other tables too: one there can undo a safeguard outside the log
        // (a trigger emptying `login_failures` lifts the login throttle).
        let elsewhere = try await session.rows(
            """
            SELECT t.tgname::text, c.relname::text FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
            JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema() AND c.relname <> 'events' AND NOT t.tgisinternal
            """, as: (String, String).self)
        let unexpected =
            byName.keys.filter { triggers[$0] == nil }.map { "\($0) (on events)" }.sorted()
            + elsewhere.map { "\($0.0) (on \($0.1))" }.sorted()
        if !unexpected.isEmpty { problems.append(.unexpectedTriggers(unexpected)) }
        return AuditCheck(
            .appendOnlyTriggers, passed: problems.isEmpty,
            problems.isEmpty ? .triggersInPlace : problems.count == 1 ? problems[0] : .all(problems))
    }
}
