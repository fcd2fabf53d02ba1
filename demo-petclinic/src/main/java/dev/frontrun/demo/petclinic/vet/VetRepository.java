package dev.frontrun.demo.petclinic.vet;

import java.util.List;
import org.springframework.data.repository.Repository;
import org.springframework.transaction.annotation.Transactional;

/** Read-only access to the vets. */
public interface VetRepository extends Repository<Vet, Integer> {

    @Transactional(readOnly = true)
    List<Vet> findAllByOrderByLastNameAscFirstNameAsc();
}
