package dev.frontrun.demo.petclinic.pet;

import java.util.List;
import org.springframework.data.jpa.repository.JpaRepository;

/** The pet types, for binding a form's {@code type} name. */
public interface PetTypeRepository extends JpaRepository<PetType, Integer> {

    List<PetType> findByOrderByName();
}
