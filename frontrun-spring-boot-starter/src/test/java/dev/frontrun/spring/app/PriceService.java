package dev.frontrun.spring.app;

import java.util.concurrent.ConcurrentHashMap;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;

/** Prices read through an in-memory cache, invalidated on write: the classic stale-cache race. */
@Service
public class PriceService {

    private final JdbcTemplate jdbc;
    private final ConcurrentHashMap<Long, Integer> cache = new ConcurrentHashMap<>();

    public PriceService(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    public int price(long product) {
        Integer cached = cache.get(product);
        if (cached != null) {
            return cached;
        }
        int price = jdbc.queryForObject("SELECT price FROM products WHERE id = ?", Integer.class, product);
        cache.put(product, price);
        return price;
    }

    public void setPrice(long product, int price) {
        jdbc.update("UPDATE products SET price = ? WHERE id = ?", price, product);
        cache.remove(product);
    }

    public Integer cached(long product) {
        return cache.get(product);
    }

    public void forgetAll() {
        cache.clear();
    }
}
