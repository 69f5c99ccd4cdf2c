"""The maker's documents: board files, schematics, drawings, plate, BOM."""
