package dev.frontrun.demo.petclinic.owner;

import dev.frontrun.demo.petclinic.system.NotFoundException;
import java.util.List;
import org.springframework.data.jpa.repository.JpaRepository;

/**
 * Spring Data's repository, as in the sample. {@code findById} and {@code save} each run in their
 * own transaction unless the caller already has one — the seam the races live in.
 */
public interface OwnerRepository extends JpaRepository<Owner, Integer> {

    List<Owner> findByLastNameStartingWithOrderByLastNameAscIdAsc(String lastName);

    /** The owner with its pets and their visits (all eager): {@code findById}, or 404. */
    default Owner load(int ownerId) {
        return findById(ownerId).orElseThrow(() -> new NotFoundException("no owner " + ownerId));
    }
}
