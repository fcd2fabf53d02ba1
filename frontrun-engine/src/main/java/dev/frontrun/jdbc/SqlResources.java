package dev.frontrun.jdbc;

/**
 * Reads the table out of a SQL resource id ({@code sql:owners}, {@code sql:owners:(1)},
 * {@code sql:billing.invoices#members}); {@code sql:*}, the endpoint, names no table.
 */
final class SqlResources {

    static final String PREFIX = "sql:";

    private SqlResources() {
    }

    /** The (possibly schema-qualified) table of a resource id, or null for the endpoint or non-SQL resources. */
    static String tableOf(String resource) {
        if (!resource.startsWith(PREFIX)) {
            return null;
        }
        String rest = resource.substring(PREFIX.length());
        if (rest.equals("*")) {
            return null;
        }
        int end = rest.length();
        for (int i = 0; i < rest.length(); i++) {
            char c = rest.charAt(i);
            if (c == ':' || c == '#' || c == '[') {
                end = i;
                break;
            }
        }
        return rest.substring(0, end);
    }
}
