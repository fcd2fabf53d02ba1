package dev.frontrun.demo.petclinic.visit;

import java.time.Duration;
import java.time.LocalDate;
import java.util.function.Supplier;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Keeps an owner from booking more than {@code petclinic.online-bookings.daily-limit} visits online a day, so one
 * owner cannot fill the clinic's diary: a counter per owner and day in Redis
 * ({@code visits:online:owner:<id>:<day>}, through Spring Data Redis and Boot's Lettuce client). With no limit set
 * (the default) bookings are not counted and Redis is never used.
 *
 * <p>Classic ({@code petclinic.online-bookings.atomic=false}, the default): the counter is read ({@code GET}), the
 * visit is booked, then the counter is incremented ({@code INCR}, and {@code EXPIRE} on the day's first booking) —
 * two bookings at the limit's last place both read it free, and the owner ends the day over the limit. Fixed
 * ({@code true}): the counter is incremented first and its answer decides; a booking over the limit, or one that
 * fails, gives its place back ({@code DECR}).
 */
@Component
public class OnlineBookingLimit {

    /** How long a day's counter is kept: past the day, whatever the server's time zone. */
    private static final Duration KEPT = Duration.ofDays(2);

    private final ObjectProvider<StringRedisTemplate> redis;
    private final int limit;
    private final boolean atomic;

    public OnlineBookingLimit(
            ObjectProvider<StringRedisTemplate> redis,
            @Value("${petclinic.online-bookings.daily-limit:0}") int limit,
            @Value("${petclinic.online-bookings.atomic:false}") boolean atomic) {
        this.redis = redis;
        this.limit = limit;
        this.atomic = atomic;
    }

    /** The counter of {@code ownerId}'s online bookings made on {@code day}. */
    public static String key(int ownerId, LocalDate day) {
        return "visits:online:owner:" + ownerId + ":" + day;
    }

    /** Runs {@code booking} if the owner may still book today, or throws {@link DailyLimitReachedException}. */
    public <T> T book(int ownerId, Supplier<T> booking) {
        if (limit <= 0) {
            return booking.get();
        }
        StringRedisTemplate counters = redis.getObject();
        String key = key(ownerId, LocalDate.now());
        if (atomic) {
            return bookCountedFirst(counters, key, ownerId, booking);
        }
        String booked = counters.opsForValue().get(key);
        if (booked != null && Integer.parseInt(booked) >= limit) {
            throw new DailyLimitReachedException(ownerId, limit);
        }
        T visit = booking.get();
        count(counters, key);
        return visit;
    }

    private <T> T bookCountedFirst(StringRedisTemplate counters, String key, int ownerId, Supplier<T> booking) {
        if (count(counters, key) > limit) {
            counters.opsForValue().decrement(key);
            throw new DailyLimitReachedException(ownerId, limit);
        }
        try {
            return booking.get();
        } catch (RuntimeException e) {
            counters.opsForValue().decrement(key);
            throw e;
        }
    }

    /** Adds one booking to the day's counter, which expires once the day is over; the new count. */
    private static long count(StringRedisTemplate counters, String key) {
        Long count = counters.opsForValue().increment(key);
        if (count != null && count == 1) {
            counters.expire(key, KEPT);
        }
        return count == null ? 0 : count;
    }
}
