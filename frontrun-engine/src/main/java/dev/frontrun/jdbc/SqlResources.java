package dev.frontrun.jdbc;

/**
 * Reads the table out of a SQL resource id ({@code sql:owners}, {@code sql:owners:(1)},
 * {@code sql:billing.invoices#members}); {@code sql:*}, the endpoint, names no table.
 */
final class SqlResources {

    static final String PREFIX = "sql:";

    private SqlResources() {
    }

    /** Whether the resource names one row: {@code sql:<table>:<key tuple or alias>}. */
    static boolean isRow(String resource) {
        String table = tableOf(resource);
        return table != null && resource.length() > PREFIX.length() + table.length()
                && resource.charAt(PREFIX.length() + table.length()) == ':';
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
        boolean quoted = false;
        for (int i = 0; i < rest.length(); i++) {
            char c = rest.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (!quoted && (c == ':' || c == '#')) {
                end = i;
                break;
            }
        }
        return rest.substring(0, end);
    }
}
