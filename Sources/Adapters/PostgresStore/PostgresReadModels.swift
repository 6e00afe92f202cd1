/// The read models on PostgreSQL: their projections, applied inline in every append's
/// transaction, and the migrations creating their tables (each shipped migration stays, in its
/// place; a change is a new migration at the end).
enum PostgresReadModels {
    /// Every projection, in the order they apply.
    static let projections: [any PostgresProjection] = [
        PostgresCatalogueProjection(), PostgresCatalogueNumbersProjection(),
        PostgresLoansProjection(), PostgresHoldsProjection(), PostgresBookmarksProjection(),
        PostgresAccountsProjection(), PostgresAppKeysProjection(),
    ]

    /// The read models' migrations, in the order they were shipped, after the log's own.
    static let migrations: [PostgresSchema.Migration] = [
        PostgresCatalogueProjection.migration, PostgresCatalogueNumbersProjection.migration,
        PostgresLoansProjection.migration, PostgresHoldsProjection.migration, PostgresBookmarksProjection.migration,
        PostgresAccountsProjection.migration, PostgresAppKeysProjection.migration,
        PostgresLoginFailures.migration, PostgresSearchCache.migration, PostgresCountryList.migration,
    ]
}
