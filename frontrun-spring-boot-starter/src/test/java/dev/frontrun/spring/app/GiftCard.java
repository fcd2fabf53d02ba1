package dev.frontrun.spring.app;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** A gift card's balance: spent and topped up by concurrent requests, with no version column. */
@Entity
@Table(name = "gift_cards")
public class GiftCard {

    @Id
    private Long id;

    private int balance;

    protected GiftCard() {}

    public Long getId() {
        return id;
    }

    public int getBalance() {
        return balance;
    }

    public void setBalance(int balance) {
        this.balance = balance;
    }
}
