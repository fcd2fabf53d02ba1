package dev.frontrun.internal.sql.schema;

/**
 * The answer of a {@link TableCatalog}. The table's description, the certainty that no such
 * relation exists, or the admission that metadata could not be read right now (which must not be
 * cached: it may work next time).
 */
public sealed interface TableLookup {

    record Found(TableInfo info) implements TableLookup {}

    record Missing(String reason) implements TableLookup {}

    record Unavailable(String reason) implements TableLookup {}
}
