package dev.frontrun.demo.petclinic;

import dev.frontrun.demo.reservations.TestReservations;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The fixed variant (profile {@code fixed}): versions, the unique pet-name index, one transaction
 * per flow. All subclasses share one Spring context and one database.
 */
@ActiveProfiles("fixed")
public abstract class FixedVariant extends PetClinicTestSupport {

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TestDatabases.register(registry, FixedVariant.class);
        TestReservations.register(registry);
        TestRedis.register(registry, 1);
    }
}
