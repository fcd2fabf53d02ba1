package dev.frontrun.internal.sql.schema;

import dev.frontrun.internal.sql.syntax.TableName;
import java.util.List;
import java.util.Objects;

/**
 * A foreign key from {@code child(childColumns)} to {@code parent(parentColumns)}, column lists in
 * key order. Writing a child row reads the parent row; deleting or re-keying a parent row reads (or,
 * with a cascading action, writes) the children.
 */
public record ForeignKey(
        TableName child,
        List<String> childColumns,
        TableName parent,
        List<String> parentColumns,
        ReferentialAction onDelete,
        ReferentialAction onUpdate) {

    public ForeignKey {
        Objects.requireNonNull(child, "child");
        Objects.requireNonNull(parent, "parent");
        childColumns = List.copyOf(childColumns);
        parentColumns = List.copyOf(parentColumns);
        if (childColumns.size() != parentColumns.size() || childColumns.isEmpty()) {
            throw new IllegalArgumentException(
                    "foreign key columns do not pair up: " + childColumns + " -> " + parentColumns);
        }
        Objects.requireNonNull(onDelete, "onDelete");
        Objects.requireNonNull(onUpdate, "onUpdate");
    }
}
