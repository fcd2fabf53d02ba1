package dev.frontrun.demo.petclinic.pet;

import java.text.ParseException;
import java.util.Locale;
import org.springframework.format.Formatter;
import org.springframework.stereotype.Component;

/** Binds a form's {@code type=dog} to the {@link PetType} of that name, as the sample does. */
@Component
public class PetTypeFormatter implements Formatter<PetType> {

    private final PetTypeRepository types;

    public PetTypeFormatter(PetTypeRepository types) {
        this.types = types;
    }

    @Override
    public String print(PetType type, Locale locale) {
        return type.getName();
    }

    @Override
    public PetType parse(String text, Locale locale) throws ParseException {
        for (PetType type : types.findByOrderByName()) {
            if (type.getName().equalsIgnoreCase(text)) {
                return type;
            }
        }
        throw new ParseException("type not found: " + text, 0);
    }
}
