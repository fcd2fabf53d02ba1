package dev.frontrun.spring.app;

import jakarta.persistence.LockModeType;
import java.util.Optional;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Lock;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;
import org.springframework.data.repository.query.Param;

public interface CounterRepository extends JpaRepository<Counter, Long> {

    /** {@code SELECT ... FOR UPDATE}: the row stays locked until the transaction ends. */
    @Lock(LockModeType.PESSIMISTIC_WRITE)
    @Query("select c from Counter c where c.id = :id")
    Optional<Counter> findForUpdate(@Param("id") long id);

    /** {@code UPDATE counters SET n = n + 1}: the database does the read-modify-write. */
    @Modifying
    @Query("update Counter c set c.n = c.n + 1 where c.id = :id")
    int incrementInPlace(@Param("id") long id);
}
