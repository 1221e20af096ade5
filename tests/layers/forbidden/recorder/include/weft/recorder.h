/* stands for the recorder's public header */
