/* stands for the definitions' public header */
