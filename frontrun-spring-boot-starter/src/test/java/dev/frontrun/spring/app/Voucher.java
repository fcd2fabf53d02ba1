package dev.frontrun.spring.app;

import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.util.UUID;

/** A voucher whose key Hibernate makes at random in the JVM ({@code GenerationType.UUID}). */
@Entity
@Table(name = "vouchers")
public class Voucher {

    @Id
    @GeneratedValue(strategy = GenerationType.UUID)
    private UUID id;

    private String code;

    protected Voucher() {}

    public Voucher(String code) {
        this.code = code;
    }

    public UUID getId() {
        return id;
    }
}
