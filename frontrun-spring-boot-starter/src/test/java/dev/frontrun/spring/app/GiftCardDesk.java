package dev.frontrun.spring.app;

import java.util.ArrayList;
import java.util.List;
import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.stereotype.Service;

/**
 * The facade in front of {@link GiftCardService}: retries a call that lost a concurrent update, up to three
 * attempts, or makes one attempt only. Its answer lists what each attempt read, so a measurement can tell
 * executions apart by what the requests saw.
 */
@Service
public class GiftCardDesk {

    static final int ATTEMPTS = 3;

    private final GiftCardService service;

    public GiftCardDesk(GiftCardService service) {
        this.service = service;
    }

    /** Each attempt's answer, in order: the balance it read, or {@code retry} where it lost the update. */
    public List<String> apply(long id, int amount) {
        List<String> attempts = new ArrayList<>();
        for (int attempt = 1; ; attempt++) {
            try {
                attempts.add(Integer.toString(service.apply(id, amount)));
                return attempts;
            } catch (ConcurrencyFailureException lost) {
                if (attempt == ATTEMPTS) {
                    throw lost;
                }
                attempts.add("retry");
            }
        }
    }

    /** One attempt: a lost update fails the call with the {@code ConcurrencyFailureException}. */
    public List<String> applyOnce(long id, int amount) {
        return List.of(Integer.toString(service.apply(id, amount)));
    }
}
