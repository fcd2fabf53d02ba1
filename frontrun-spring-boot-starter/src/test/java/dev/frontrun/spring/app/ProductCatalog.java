package dev.frontrun.spring.app;

import org.springframework.cache.annotation.CacheEvict;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;

/** Product names through Spring's cache abstraction: {@code @Cacheable} reads, {@code @CacheEvict} on rename. */
@Service
public class ProductCatalog {

    public static final String CACHE = "product-names";

    private final JdbcTemplate jdbc;

    public ProductCatalog(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Cacheable(CACHE)
    public String name(long product) {
        return jdbc.queryForObject("SELECT name FROM products WHERE id = ?", String.class, product);
    }

    @CacheEvict(CACHE)
    public void rename(long product, String name) {
        jdbc.update("UPDATE products SET name = ? WHERE id = ?", name, product);
    }
}
