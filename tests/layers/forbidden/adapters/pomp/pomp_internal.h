/* stands for the POMP adapter's private header */
