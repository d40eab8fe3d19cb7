import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult } from 'kysely';
import type { Tracing } from './tracing.js';

/** The first word of a statement (select, insert, begin…), as OpenTelemetry's `db.operation.name`. */
function operationOf(sqlText: string): string {
  return /^\s*([A-Za-z]+)/.exec(sqlText)?.[1]?.toLowerCase() ?? 'query';
}

/**
 * A span per statement, around the connections Kysely's driver hands out:
 * one wrapper for SQLite and PostgreSQL alike. It sits at the driver rather
 * than in instrumentation-pg because agentd imports pg as an ES module, which
 * require-hook instrumentations only see with a loader flag; here no flag is
 * needed. The statement is recorded with its placeholders, never the values.
 */
export function tracedDialect(dialect: Dialect, system: 'sqlite' | 'postgresql', tracing: Tracing): Dialect {
  const inner = new WeakMap<DatabaseConnection, DatabaseConnection>();
  const unwrap = (connection: DatabaseConnection) => inner.get(connection) ?? connection;

  function wrap(connection: DatabaseConnection): DatabaseConnection {
    const traced: DatabaseConnection = {
      async executeQuery<Row>(compiled: CompiledQuery): Promise<QueryResult<Row>> {
        const operation = operationOf(compiled.sql);
        const span = tracing.startSpan(`${operation} ${system}`, 'client', {
          'db.system.name': system,
          'db.operation.name': operation,
          'db.query.text': compiled.sql.slice(0, 2000),
        });
        try {
          return await connection.executeQuery<Row>(compiled);
        } catch (error) {
          span.fail(error);
          throw error;
        } finally {
          span.end();
        }
      },
      streamQuery: (compiled, chunkSize) => connection.streamQuery(compiled, chunkSize),
    };
    inner.set(traced, connection);
    return traced;
  }

  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver(): Driver {
      const driver = dialect.createDriver();
      return {
        init: () => driver.init(),
        acquireConnection: async () => wrap(await driver.acquireConnection()),
        beginTransaction: (connection, settings) => driver.beginTransaction(unwrap(connection), settings),
        commitTransaction: (connection) => driver.commitTransaction(unwrap(connection)),
        rollbackTransaction: (connection) => driver.rollbackTransaction(unwrap(connection)),
        ...(driver.savepoint
          ? { savepoint: (connection, name, compile) => driver.savepoint!(unwrap(connection), name, compile) }
          : {}),
        ...(driver.rollbackToSavepoint
          ? {
              rollbackToSavepoint: (connection, name, compile) =>
                driver.rollbackToSavepoint!(unwrap(connection), name, compile),
            }
          : {}),
        ...(driver.releaseSavepoint
          ? {
              releaseSavepoint: (connection, name, compile) =>
                driver.releaseSavepoint!(unwrap(connection), name, compile),
            }
          : {}),
        releaseConnection: (connection) => driver.releaseConnection(unwrap(connection)),
        destroy: () => driver.destroy(),
      };
    },
  };
}
