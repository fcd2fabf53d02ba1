package dev.frontrun.demo.petclinic.pet;

import dev.frontrun.demo.petclinic.model.NamedEntity;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/** A kind of pet (cat, dog, ...); forms refer to it by name. */
@Entity
@Table(name = "types")
public class PetType extends NamedEntity {}
