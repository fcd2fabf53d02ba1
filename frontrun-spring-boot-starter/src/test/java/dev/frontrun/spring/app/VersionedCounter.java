package dev.frontrun.spring.app;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

/** A counter under optimistic locking: a stale write updates no row and fails. */
@Entity
@Table(name = "versioned_counters")
public class VersionedCounter {

    @Id
    private Long id;

    private int n;

    @Version
    private int version;

    protected VersionedCounter() {}

    public Long getId() {
        return id;
    }

    public int getN() {
        return n;
    }

    public void setN(int n) {
        this.n = n;
    }
}
