package dev.frontrun.spring.app;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Registers a member if the name is free: check, then insert — racy without a unique index. */
@Service
public class MemberService {

    /** The advisory lock every locked registration takes first. */
    private static final int REGISTRATIONS = 7;

    private final MemberRepository members;
    private final JdbcTemplate jdbc;

    public MemberService(MemberRepository members, JdbcTemplate jdbc) {
        this.members = members;
        this.jdbc = jdbc;
    }

    /** The new member's id, or null when the name is taken. */
    @Transactional
    public Long register(String name) {
        if (members.existsByName(name)) {
            return null;
        }
        return members.save(new Member(name)).getId();
    }

    /** The same, one registration at a time (a transaction advisory lock first): the loser is told the name is taken. */
    @Transactional
    public Long registerLocked(String name) {
        jdbc.queryForObject("SELECT pg_advisory_xact_lock(" + REGISTRATIONS + ")::text", String.class);
        return register(name);
    }
}
