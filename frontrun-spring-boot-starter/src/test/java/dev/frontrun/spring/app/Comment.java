package dev.frontrun.spring.app;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

/**
 * A comment whose id Hibernate takes from a sequence in blocks kept in memory (the pooled optimizer, as for a bare
 * {@code @GeneratedValue}; blocks of 5 here, so that a few inserts use one up).
 */
@Entity
@Table(name = "comments")
public class Comment {

    @Id
    @GeneratedValue
    @SequenceGenerator(name = "comments", sequenceName = "comments_seq", allocationSize = 5)
    private Long id;

    private String text;

    protected Comment() {}

    public Comment(String text) {
        this.text = text;
    }

    public Long getId() {
        return id;
    }
}
