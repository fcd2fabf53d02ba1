package dev.frontrun.spring.app;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Isolation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Spends from and tops up a gift card at REPEATABLE READ, as an application written from the guides does: read the
 * card, change its balance in Java, save it and a ledger entry. A concurrent commit to the card fails the later
 * writer with a serialization failure, which Spring reports as a {@code ConcurrencyFailureException}.
 */
@Service
public class GiftCardService {

    private final GiftCardRepository cards;
    private final LedgerEntryRepository ledger;

    public GiftCardService(GiftCardRepository cards, LedgerEntryRepository ledger) {
        this.cards = cards;
        this.ledger = ledger;
    }

    /** Adds {@code amount} (negative: a spend) to the card's balance; what the balance was when read, then. */
    @Transactional(isolation = Isolation.REPEATABLE_READ)
    public int apply(long id, int amount) {
        GiftCard card = cards.findById(id).orElseThrow();
        int read = card.getBalance();
        card.setBalance(read + amount);
        cards.save(card);
        ledger.save(new LedgerEntry(id, amount));
        return read;
    }
}
