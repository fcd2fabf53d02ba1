package dev.frontrun.spring.app;

import jakarta.persistence.Cacheable;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.Cache;
import org.hibernate.annotations.CacheConcurrencyStrategy;

/** A count Hibernate keeps in its second-level cache. */
@Entity
@Table(name = "tallies")
@Cacheable
@Cache(usage = CacheConcurrencyStrategy.READ_WRITE)
public class Tally {

    @Id
    private Long id;

    private int n;

    protected Tally() {}

    public int getN() {
        return n;
    }

    public void increment() {
        n++;
    }
}
