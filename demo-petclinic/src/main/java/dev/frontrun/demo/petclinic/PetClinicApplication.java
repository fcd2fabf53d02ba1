package dev.frontrun.demo.petclinic;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The Spring PetClinic, rebuilt with the sample's own transaction structure so that its races are
 * real. See the module README for the races and the {@code fixed} profile that removes them.
 */
@SpringBootApplication
public class PetClinicApplication {

    public static void main(String[] args) {
        SpringApplication.run(PetClinicApplication.class, args);
    }
}
