package dev.frontrun.internal.sql.resource;

import java.util.List;
import java.util.Objects;

/**
 * What a statement touched, for people and for the anomaly classifier. A row with its key columns
 * and values, all rows of a table, a sequence step, or (endpoint) anything. Renderers format it;
 * nothing parses the rendering back.
 *
 * @param id         the resource touched
 * @param keyColumns the key column names of a row (empty otherwise)
 * @param keyValues  the rendered key values of a row, one per column, or a single alias such as
 *                   {@code @t0.1} for a key the database generates
 * @param repositions for a sequence: {@code setval} (true) or {@code nextval} (false)
 */
public record RowRef(ResourceId id, List<String> keyColumns, List<String> keyValues, boolean repositions) {

    public RowRef {
        Objects.requireNonNull(id, "id");
        keyColumns = List.copyOf(keyColumns);
        keyValues = List.copyOf(keyValues);
    }

    public static RowRef row(ResourceId id, List<String> keyColumns, List<String> keyValues) {
        return new RowRef(id, keyColumns, keyValues, false);
    }

    public static RowRef of(ResourceId id) {
        return new RowRef(id, List.of(), List.of(), false);
    }

    public static RowRef sequence(ResourceId id, boolean repositions) {
        return new RowRef(id, List.of(), List.of(), repositions);
    }

    /** {@code owners[id=1]}, {@code lines[order_id=7,no=2]}, {@code owners[*]}, {@code owners_seq[nextval]}, {@code *}. */
    public String display() {
        return switch (id.kind()) {
            case ENDPOINT -> "*";
            case TABLE, MEMBERS, KEYS, LOCKS -> id.table() + "[*]";
            case SEQUENCE -> id.table() + (repositions ? "[setval]" : "[nextval]");
            case ROW -> id.table() + "[" + keyText() + "]";
        };
    }

    private String keyText() {
        if (keyValues.size() == keyColumns.size()) {
            StringBuilder s = new StringBuilder();
            for (int i = 0; i < keyValues.size(); i++) {
                s.append(i == 0 ? "" : ",")
                        .append(keyColumns.get(i))
                        .append('=')
                        .append(keyValues.get(i));
            }
            return s.toString();
        }
        return "(" + String.join(",", keyColumns) + ")=" + String.join(",", keyValues);
    }

    /** The rows of a step joined for people: {@code owners[id=1], visits[*]}. */
    public static String display(List<RowRef> rows) {
        StringBuilder s = new StringBuilder();
        for (RowRef r : rows) {
            s.append(s.length() == 0 ? "" : ", ").append(r.display());
        }
        return s.toString();
    }

    @Override
    public String toString() {
        return display();
    }
}
