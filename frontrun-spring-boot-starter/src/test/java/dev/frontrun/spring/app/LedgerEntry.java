package dev.frontrun.spring.app;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** One movement of a gift card's balance, its id drawn by the database ({@code IDENTITY}) as it is inserted. */
@Entity
@Table(name = "ledger_entries")
public class LedgerEntry {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(name = "card_id")
    private long cardId;

    private int amount;

    protected LedgerEntry() {}

    public LedgerEntry(long cardId, int amount) {
        this.cardId = cardId;
        this.amount = amount;
    }

    public Long getId() {
        return id;
    }
}
