package dev.frontrun.spring.app;

import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Service;

/** Coupons redeemed in memory only, checked then marked: two requests can both redeem the same code. */
@Service
public class CouponService {

    private final ConcurrentHashMap<String, String> redeemed = new ConcurrentHashMap<>();

    /** Whether {@code who} redeemed {@code code}: false when someone had already. */
    public boolean redeem(String code, String who) {
        if (redeemed.containsKey(code)) {
            return false;
        }
        redeemed.put(code, who);
        return true;
    }

    public void forgetAll() {
        redeemed.clear();
    }
}
