package dev.frontrun.demo.petclinic;

import dev.frontrun.demo.reservations.TestReservations;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * The classic variant with every connection at SERIALIZABLE (set by the pool): the strongest
 * isolation PostgreSQL has, and still the races of the sample's structure happen, because each
 * request reads in one transaction and writes in a later one.
 */
@TestPropertySource(properties = "spring.datasource.hikari.transaction-isolation=TRANSACTION_SERIALIZABLE")
public abstract class SerializableVariant extends PetClinicTestSupport {

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TestDatabases.register(registry, SerializableVariant.class);
        TestReservations.register(registry);
        TestRedis.register(registry, 2);
    }
}
