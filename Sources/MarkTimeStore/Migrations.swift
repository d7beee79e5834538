import GRDB

extension AppDatabase {
    /// Named, append-only migrations in plain SQL, one file each in `Migrations/` (compiled
    /// into the binary). Never edit one that has shipped: add the next file, and its line here.
    static let migrations: [(name: String, sql: String)] = [
        ("v1", PackageResources.v1_sql), ("v2", PackageResources.v2_sql), ("v3", PackageResources.v3_sql),
        ("v4", PackageResources.v4_sql), ("v5", PackageResources.v5_sql), ("v6", PackageResources.v6_sql),
        ("v7", PackageResources.v7_sql), ("v8", PackageResources.v8_sql), ("v9", PackageResources.v9_sql),
        ("v10", PackageResources.v10_sql), ("v11", PackageResources.v11_sql), ("v12", PackageResources.v12_sql),
        ("v13", PackageResources.v13_sql), ("v14", PackageResources.v14_sql),
        ("v15", PackageResources.v15_sql), ("v16", PackageResources.v16_sql), ("v17", PackageResources.v17_sql), ("v18", PackageResources.v18_sql), ("v19", PackageResources.v19_sql),
        ("v20", PackageResources.v20_sql), ("v21", PackageResources.v21_sql),
    ].map { ($0.0, String(decoding: $0.1, as: UTF8.self)) }

    static var migrationNames: [String] { migrations.map(\.name) }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for migration in migrations {
            migrator.registerMigration(migration.name) { db in try db.execute(sql: migration.sql) }
        }
        return migrator
    }
}
