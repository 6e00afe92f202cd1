import GRDB

extension Database {
    /// Runs one SQL statement compiled once per connection and then reused: the writer's and the
    /// replay's hot paths run the same few statements for every event.
    func cached(sql: String, arguments: StatementArguments = StatementArguments()) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
