package dev.frontrun.demo.petclinic.pet;

import java.time.LocalDate;
import org.springframework.util.StringUtils;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/** The sample's pet form rules: name, type (for new pets) and a birth date not in the future. */
public class PetValidator implements Validator {

    private static final String REQUIRED = "required";

    @Override
    public boolean supports(Class<?> clazz) {
        return Pet.class.isAssignableFrom(clazz);
    }

    @Override
    public void validate(Object target, Errors errors) {
        Pet pet = (Pet) target;
        if (!StringUtils.hasText(pet.getName())) {
            errors.rejectValue("name", REQUIRED, REQUIRED);
        }
        if (pet.isNew() && pet.getType() == null && !errors.hasFieldErrors("type")) {
            errors.rejectValue("type", REQUIRED, REQUIRED);
        }
        if (pet.getBirthDate() == null && !errors.hasFieldErrors("birthDate")) {
            errors.rejectValue("birthDate", REQUIRED, REQUIRED);
        } else if (pet.getBirthDate() != null && pet.getBirthDate().isAfter(LocalDate.now())) {
            errors.rejectValue("birthDate", "future", "must not be in the future");
        }
    }
}
