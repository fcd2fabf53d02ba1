package dev.frontrun.demo.petclinic.system;

/** An unknown owner or pet in the path: answered 404. */
public class NotFoundException extends RuntimeException {

    public NotFoundException(String message) {
        super(message);
    }
}
