package dev.frontrun.demo.petclinic.system;

import jakarta.servlet.ServletRequest;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.format.support.FormattingConversionService;
import org.springframework.stereotype.Component;
import org.springframework.validation.BindingResult;
import org.springframework.validation.Validator;
import org.springframework.validation.beanvalidation.SpringValidatorAdapter;
import org.springframework.web.bind.ServletRequestDataBinder;

/**
 * Binds a form-encoded request onto an entity, the way the sample's {@code @ModelAttribute}
 * methods do. The entity is the one just loaded, and only the parameters actually posted (among
 * the allowed fields) overwrite its properties. Done by hand so that the controller decides where
 * the load happens — outside or inside the flow's transaction.
 */
@Component
public class FormBinder {

    private final FormattingConversionService conversions;
    private final Validator beanValidation;

    public FormBinder(
            @Qualifier("mvcConversionService") FormattingConversionService conversions,
            jakarta.validation.Validator validator) {
        this.conversions = conversions;
        this.beanValidation = new SpringValidatorAdapter(validator);
    }

    /** Binds and validates (bean validation, then {@code validators}); the errors are in the result. */
    public BindingResult bind(Object target, ServletRequest request, String[] allowedFields, Validator... validators) {
        ServletRequestDataBinder binder = new ServletRequestDataBinder(target, "form");
        binder.setConversionService(conversions);
        binder.setAllowedFields(allowedFields);
        binder.bind(request);
        BindingResult result = binder.getBindingResult();
        beanValidation.validate(target, result);
        for (Validator validator : validators) {
            validator.validate(target, result);
        }
        return result;
    }
}
