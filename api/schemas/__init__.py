"""Request and response bodies: input models forbid unknown fields; Create, Update and Read are separate."""
