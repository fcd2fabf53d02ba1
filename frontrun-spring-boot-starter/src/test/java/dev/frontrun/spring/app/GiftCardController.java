package dev.frontrun.spring.app;

import java.util.List;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Spends and top-ups of a gift card over HTTP, with the facade's retries or one attempt. */
@RestController
public class GiftCardController {

    private final GiftCardDesk desk;

    public GiftCardController(GiftCardDesk desk) {
        this.desk = desk;
    }

    @PostMapping("/gift-cards/{id}/spend")
    public List<String> spend(@PathVariable long id, @RequestParam int amount) {
        return desk.apply(id, -amount);
    }

    @PostMapping("/gift-cards/{id}/top-up")
    public List<String> topUp(@PathVariable long id, @RequestParam int amount) {
        return desk.apply(id, amount);
    }

    @PostMapping("/gift-cards/{id}/spend-once")
    public List<String> spendOnce(@PathVariable long id, @RequestParam int amount) {
        return desk.applyOnce(id, -amount);
    }

    @PostMapping("/gift-cards/{id}/top-up-once")
    public List<String> topUpOnce(@PathVariable long id, @RequestParam int amount) {
        return desk.applyOnce(id, amount);
    }
}
