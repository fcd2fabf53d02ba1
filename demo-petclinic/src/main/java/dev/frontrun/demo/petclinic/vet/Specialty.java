package dev.frontrun.demo.petclinic.vet;

import dev.frontrun.demo.petclinic.model.NamedEntity;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/** A vet's specialty (radiology, surgery, dentistry). */
@Entity
@Table(name = "specialties")
public class Specialty extends NamedEntity {}
