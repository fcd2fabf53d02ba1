package dev.frontrun.spring.app;

import org.springframework.data.jpa.repository.JpaRepository;

public interface VersionedCounterRepository extends JpaRepository<VersionedCounter, Long> {}
