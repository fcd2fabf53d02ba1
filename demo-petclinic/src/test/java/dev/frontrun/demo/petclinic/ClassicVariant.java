package dev.frontrun.demo.petclinic;

import dev.frontrun.demo.reservations.TestReservations;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The classic variant (no profile): the sample's structure, with its races. All subclasses share
 * one Spring context and one database.
 */
public abstract class ClassicVariant extends PetClinicTestSupport {

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TestDatabases.register(registry, ClassicVariant.class);
        TestReservations.register(registry);
        TestRedis.register(registry, 0);
    }
}
