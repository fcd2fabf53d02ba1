package dev.frontrun.internal.sql;

import dev.frontrun.Access;
import dev.frontrun.internal.sql.parse.SqlParser;
import dev.frontrun.internal.sql.plan.AccessPlan;
import dev.frontrun.internal.sql.plan.AccessPlanner;
import dev.frontrun.internal.sql.plan.PlannedAccess;
import dev.frontrun.internal.sql.schema.JdbcTableCatalog;
import dev.frontrun.internal.sql.schema.TableCatalog;
import dev.frontrun.internal.sql.syntax.StatementKind;
import dev.frontrun.internal.sql.syntax.StatementSyntax;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * Entry point of the SQL pipeline for the JDBC proxy: one per data source, thread-safe.
 * {@link #classify} parses and plans a SQL text once and caches the result by text; the proxy then
 * calls {@link Classification#bind} with each execution's parameters to get the step's accesses.
 * Never throws because analysis failed: whatever cannot be analysed is reported coarser (see the
 * package documentation for the levels).
 */
public final class SqlClassifier {

    public static final int DEFAULT_CACHE_ENTRIES = 10_000;

    private final TableCatalog catalog;
    private final AccessPlanner planner;
    private final Map<String, Classification> cache = new ConcurrentHashMap<>();
    private final int maxEntries;
    private volatile boolean schemaChanged;

    public SqlClassifier(TableCatalog catalog) {
        this(catalog, DEFAULT_CACHE_ENTRIES);
    }

    /** {@code maxCacheEntries} bounds the classification cache; 0 disables it (for measurements). */
    public SqlClassifier(TableCatalog catalog, int maxCacheEntries) {
        this.catalog = catalog;
        this.planner = new AccessPlanner(catalog);
        this.maxEntries = maxCacheEntries;
    }

    /** A classifier reading table metadata lazily from {@code dataSource} (a fresh connection per lookup). */
    public static SqlClassifier forDataSource(DataSource dataSource) {
        return new SqlClassifier(JdbcTableCatalog.of(dataSource));
    }

    public Classification classify(String sql) {
        if (sql == null) {
            return analyse(null);
        }
        if (schemaChanged) {
            schemaChanged = false;
            invalidate();
        }
        Classification cached = cache.get(sql);
        if (cached != null) {
            return cached;
        }
        Classification fresh = analyse(sql);
        if (fresh.cacheable() && maxEntries > 0) {
            if (cache.size() >= maxEntries) {
                cache.clear();
            }
            cache.putIfAbsent(sql, fresh);
        }
        if (fresh.changesSchema()) {
            schemaChanged = true;
        }
        return fresh;
    }

    /** Forgets cached classifications and metadata; needed only after schema changes made behind our back. */
    public void invalidate() {
        cache.clear();
        catalog.invalidate();
    }

    /**
     * Reads the metadata again, and forgets the cached classifications only if it changed. What may have changed behind
     * our back (a test's setup between two explorations) usually did not, and classifying afresh costs a parse each.
     */
    public void refreshSchema() {
        if (catalog.refresh()) {
            cache.clear();
        }
    }

    /** {@link #refreshSchema()} on {@code lent}, a connection of the caller's, left open. */
    public void refreshSchema(Connection lent) {
        if (catalog.refresh(lent)) {
            cache.clear();
        }
    }

    private Classification analyse(String sql) {
        StatementSyntax syntax;
        try {
            syntax = SqlParser.parse(sql);
        } catch (RuntimeException | StackOverflowError e) {
            syntax = StatementSyntax.Opaque.write(
                    StatementKind.UNKNOWN, "parser failed: " + e, StatementSyntax.Parser.KEYWORDS);
        }
        AccessPlan plan;
        try {
            plan = planner.plan(syntax);
        } catch (RuntimeException | StackOverflowError e) {
            String reason = "planning failed: " + e;
            plan = new AccessPlan(
                    List.of(new PlannedAccess.Endpoint(Access.WRITE, reason)), List.of(), List.of(reason), false);
        }
        return new Classification(sql, syntax, plan);
    }
}
