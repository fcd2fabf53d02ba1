package dev.frontrun.spring.app;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Redeeming a coupon over HTTP: no SQL anywhere on the way, the race lives in the service's map. */
@RestController
public class CouponController {

    private final CouponService coupons;

    public CouponController(CouponService coupons) {
        this.coupons = coupons;
    }

    @PostMapping("/coupons/{code}/redeem")
    public ResponseEntity<String> redeem(@PathVariable String code, @RequestParam String who) {
        return coupons.redeem(code, who)
                ? ResponseEntity.ok("redeemed")
                : ResponseEntity.status(HttpStatus.CONFLICT).body("already redeemed");
    }
}
