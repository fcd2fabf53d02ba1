package dev.frontrun.internal.sql;

import java.util.Objects;

/**
 * A database transaction as traces name it. Its id ({@code alice/tx2}: the thread and the transaction's number on it)
 * and, where a framework said what it does, that label ({@code POST /owners/1/edit → OwnerController.processUpdateOwnerForm:
 * SimpleJpaRepository.save}). Kept apart so a report can spell the label once and the id everywhere else.
 *
 * @param id    the thread and the transaction's number on it
 * @param label what the transaction does, or null
 */
public record TransactionName(String id, String label) {

    public TransactionName {
        Objects.requireNonNull(id, "id");
    }

    /** A transaction without a label; null for null. */
    public static TransactionName of(String id) {
        return id == null ? null : new TransactionName(id, null);
    }

    /** The name traces and the analysis know the transaction by: {@code alice/tx2 OwnerService.addVisit}. */
    public String full() {
        return label == null ? id : id + " " + label;
    }

    @Override
    public String toString() {
        return full();
    }
}
