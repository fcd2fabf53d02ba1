package dev.frontrun.spring.app;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Registers a member if the name is free: check, then insert — racy without a unique index. */
@Service
public class MemberService {

    private final MemberRepository members;

    public MemberService(MemberRepository members) {
        this.members = members;
    }

    /** The new member's id, or null when the name is taken. */
    @Transactional
    public Long register(String name) {
        if (members.existsByName(name)) {
            return null;
        }
        return members.save(new Member(name)).getId();
    }
}
