package dev.frontrun.spring.hints.gadgets;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** One application's entity for the table {@code things}. */
@Entity
@Table(name = "things")
public class Gadget {
    @Id
    Long id;

    String label;
}
