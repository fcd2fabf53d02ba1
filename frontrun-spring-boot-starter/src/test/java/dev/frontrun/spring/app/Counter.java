package dev.frontrun.spring.app;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A named number that requests increment. */
@Entity
@Table(name = "counters")
public class Counter {

    @Id
    private Long id;

    private String name;

    private int n;

    protected Counter() {}

    public Long getId() {
        return id;
    }

    public String getName() {
        return name;
    }

    public int getN() {
        return n;
    }

    public void setN(int n) {
        this.n = n;
    }
}
