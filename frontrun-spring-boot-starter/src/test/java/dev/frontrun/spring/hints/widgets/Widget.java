package dev.frontrun.spring.hints.widgets;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** Another application's entity for the same table {@code things}. */
@Entity
@Table(name = "things")
public class Widget {
    @Id
    Long id;

    String label;
}
